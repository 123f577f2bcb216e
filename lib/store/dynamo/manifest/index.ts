/**
 * The manifest (the committed generation, the abandoned ones, the clean-up due) and the load's
 * lease, read by searches and written by loads.
 */
export { type LeaseHolder, thisProcess } from "./lease-holder.js";
export {
  abandonedOf,
  acquireLease,
  cleanedUp,
  type Lease,
  type LeaseWatch,
  type Manifest,
  publish,
  readManifest,
  releaseLease,
  renewLease,
} from "./manifest.js";
