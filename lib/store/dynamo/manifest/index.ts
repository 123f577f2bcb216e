/**
 * The manifest (the committed generation, the abandoned ones, the clean-up due) and the load's
 * lease, read by searches and written by loads.
 */
export { holderIsDead, type LeaseHolder, thisProcess } from "./lease-holder.js";
export {
  type AbandonedList,
  abandonedOf,
  abandonLease,
  acquireLease,
  afterRecovery,
  cleanedUp,
  type DeadHolders,
  giveBackLease,
  type Lease,
  type LeaseWatch,
  type Manifest,
  publish,
  readManifest,
  releaseLease,
  renewLease,
} from "./manifest.js";
