import type { ExpoConfig } from 'expo/config';

const config: ExpoConfig = {
  name: 'appointo',
  slug: 'appointo',
  ios: { bundleIdentifier: 'health.larkspur.appointo', associatedDomains: ['applinks:app.appointo.larkspur.health'] },
  android: { package: 'health.larkspur.appointo' },
  extra: { apiUrl: process.env.EXPO_PUBLIC_API_URL },
};

export default config;
