-- cardbot's database, schema 1, as the first release made it (PRAGMA user_version=1,
-- application_id=0x43423034). tests/store/storage.py builds a version-1 file from this and
-- checks that the bot migrates it forward without losing anything.
CREATE TABLE adapter_state(network TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,  PRIMARY KEY(network, key));
CREATE TABLE users(network TEXT NOT NULL, user TEXT NOT NULL, ascii INTEGER NOT NULL DEFAULT 0,  PRIMARY KEY(network, user));
CREATE TABLE tables(network TEXT NOT NULL, room TEXT NOT NULL, meta TEXT NOT NULL, match_id INTEGER,  updated INTEGER NOT NULL, PRIMARY KEY(network, room));
CREATE TABLE matches(id INTEGER PRIMARY KEY, network TEXT NOT NULL, room TEXT NOT NULL,  game TEXT NOT NULL, rules TEXT NOT NULL, dealer INTEGER NOT NULL, started INTEGER NOT NULL,  ended INTEGER, winner INTEGER, tokens0 INTEGER, tokens1 INTEGER);
CREATE TABLE match_players(match_id INTEGER NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL,  user TEXT NOT NULL, name TEXT NOT NULL, computer INTEGER NOT NULL, PRIMARY KEY(match_id, seat));
CREATE TABLE deals(match_id INTEGER NOT NULL REFERENCES matches(id), idx INTEGER NOT NULL,  deck TEXT NOT NULL, salt TEXT NOT NULL, commitment TEXT NOT NULL, ended INTEGER NOT NULL DEFAULT 0,  PRIMARY KEY(match_id, idx));
CREATE TABLE actions(match_id INTEGER NOT NULL, deal_idx INTEGER NOT NULL, seq INTEGER NOT NULL,  action TEXT NOT NULL, PRIMARY KEY(match_id, deal_idx, seq),  FOREIGN KEY(match_id, deal_idx) REFERENCES deals(match_id, idx));
CREATE TABLE deal_results(match_id INTEGER NOT NULL, deal_idx INTEGER NOT NULL, seat INTEGER NOT NULL,  network TEXT NOT NULL, user TEXT NOT NULL, name TEXT NOT NULL, computer INTEGER NOT NULL,  team INTEGER NOT NULL, outcome TEXT NOT NULL, trumper INTEGER NOT NULL, bid INTEGER NOT NULL,  made INTEGER NOT NULL, won INTEGER NOT NULL, points INTEGER NOT NULL, caps TEXT NOT NULL,  caps_called INTEGER NOT NULL, PRIMARY KEY(match_id, deal_idx, seat));
