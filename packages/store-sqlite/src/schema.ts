// Tables of the store. `IF NOT EXISTS` everywhere: several processes may open one file at once,
// and the first to get the write lock creates them.
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS procmux_checkpoints (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  data TEXT NOT NULL,
  version INTEGER NOT NULL,
  fencing_token INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (namespace, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS procmux_leases (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  holder TEXT NOT NULL,
  token INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (namespace, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS procmux_fencing_tokens (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last INTEGER NOT NULL
);
INSERT OR IGNORE INTO procmux_fencing_tokens (id, last) VALUES (1, 0);
`;

export interface CheckpointRow {
  key: string;
  data: string;
  version: number;
  fencing_token: number;
  updated_at: number;
}

export interface LeaseRow {
  key: string;
  holder: string;
  token: number;
  expires_at: number;
}
