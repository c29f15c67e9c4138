export const linking = {
  prefixes: ['https://app.appointo.larkspur.health', 'appointo://'],
  config: { screens: { Home: '', Booking: 'book/:clinicId' } },
};
