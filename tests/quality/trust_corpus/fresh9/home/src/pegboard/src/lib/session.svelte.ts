export class Session {
  memberId = $state<string | null>(null);
  signedIn = $derived(this.memberId !== null);
}
