export default { server: { port: 1421, strictPort: true } };
