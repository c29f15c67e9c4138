import { faker } from "@faker-js/faker";

export function booking(overrides = {}) {
  return { boatName: faker.word.noun(), nights: 2, ...overrides };
}
