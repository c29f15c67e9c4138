package deploy

// KeepReleases is how many releases per service the controller keeps for rollback.
const KeepReleases = 10
