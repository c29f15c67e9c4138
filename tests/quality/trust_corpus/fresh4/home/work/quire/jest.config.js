export default { testEnvironment: 'node' };
