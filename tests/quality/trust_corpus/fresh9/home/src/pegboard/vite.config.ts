import { sveltekit as kit } from '@sveltejs/kit/vite';
import { defineConfig as config } from 'vite';

export default config({
  plugins: [kit()],
  server: { port: 5174, proxy: { '/api': 'http://localhost:5080' } }
});
