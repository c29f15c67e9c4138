declare global {
  namespace App {
    interface Locals {
      memberId: string | null;
    }
  }
}

export {};
