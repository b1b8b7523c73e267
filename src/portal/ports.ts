// What the composition root gives the portal: accounts and sessions in the store, the api's key administration and usage counters, plans, the wall clock, where it is reached, and the explorer's sample data.
import type { SiteAddress } from '../api/base-url.js';
import type { KeyAdmin } from '../api/key-admin.js';
import type { WebhookAdmin } from '../api/webhook-admin.js';
import type { UsageCounter } from '../api/quota/counter.js';
import type { PlanBook } from '../domain/quota.js';
import type { Store } from '../store/store.js';

/** The store as the portal sees it: accounts, sessions, and reading a key (keys change through `KeyAdmin`). */
export type PortalStore = Pick<
  Store,
  | 'createAccount'
  | 'findAccountByEmail'
  | 'findAccountById'
  | 'createPortalSession'
  | 'findPortalSession'
  | 'deletePortalSession'
  | 'deleteExpiredPortalSessions'
  | 'findApiKeyById'
>;

/** A priced selection the explorer's bet check example names (its odds in decimal). */
export interface SampleSelection {
  event_id: string;
  market_id: number;
  selection_id: number;
  odds: number;
}

/** Real ids from this service's data, so the explorer's first request of each endpoint works as it is. */
export interface ExplorerSamples {
  /** A few events, live first (empty when the service holds none yet). */
  eventIds: string[];
  /** An open, unlocked selection of one of them, or null. */
  selection: SampleSelection | null;
  /** The chosen key's first webhook subscription, for the webhook routes' `{id}` (absent: none). */
  webhookId?: string | undefined;
}

export interface PortalPorts {
  store: PortalStore;
  /** Creates, renames and revokes keys, effective at once on this node. */
  keyAdmin: KeyAdmin;
  /** A key's webhook subscriptions (the API's own rules; absent: no webhooks page). */
  webhooks?: WebhookAdmin;
  plans: PlanBook;
  usage: UsageCounter;
  /** Wall clock (sessions, attempt windows, this month). */
  now: () => number;
  site: SiteAddress;
  /** Read when the explorer page is built. */
  samples: () => ExplorerSamples;
}
