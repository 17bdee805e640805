import type { Migration } from 'kysely';
import * as m0001 from './0001_accounts.js';
import * as m0002 from './0002_commerce.js';
import * as m0003 from './0003_messaging.js';
import * as m0004 from './0004_realname_operator.js';
import * as m0005 from './0005_files.js';
import * as m0006 from './0006_send_lease.js';
import * as m0007 from './0007_rate_windows.js';
import * as m0008 from './0008_showcase.js';
import * as m0009 from './0009_client_errors.js';
import * as m0010 from './0010_showcase_state.js';
import * as m0011 from './0011_wechaty_devices.js';
import * as m0012 from './0012_wechaty_leases.js';
import * as m0013 from './0013_online_counts.js';
import * as m0014 from './0014_partial_status_indexes.js';
import * as m0015 from './0015_sim_member_key.js';
import * as m0016 from './0016_pending_callbacks_index.js';
import * as m0017 from './0017_sim_network_keys.js';
import * as m0018 from './0018_pg_write_path_references.js';

/**
 * Every migration, in order. Listed here rather than read from disk so the bundled server carries
 * them. Never edit a migration that has shipped: add the next one.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': m0001,
  '0002_commerce': m0002,
  '0003_messaging': m0003,
  '0004_realname_operator': m0004,
  '0005_files': m0005,
  '0006_send_lease': m0006,
  '0007_rate_windows': m0007,
  '0008_showcase': m0008,
  '0009_client_errors': m0009,
  '0010_showcase_state': m0010,
  '0011_wechaty_devices': m0011,
  '0012_wechaty_leases': m0012,
  '0013_online_counts': m0013,
  '0014_partial_status_indexes': m0014,
  '0015_sim_member_key': m0015,
  '0016_pending_callbacks_index': m0016,
  '0017_sim_network_keys': m0017,
  '0018_pg_write_path_references': m0018,
};
