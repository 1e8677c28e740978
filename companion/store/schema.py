"""The database schema as an ordered list of migrations.

Migration ``i`` takes a database from ``user_version == i`` to ``i + 1``. Never edit a
migration that has shipped; append a new one. Each is SQL, run statement by statement in
one transaction together with the version bump; a migration that must also compute
values in Python names a step in ``PYTHON_STEPS`` (run in the same transaction).
"""

#: Marks a SQLite file as Purser's (``PRAGMA application_id``; "PRSR" in ASCII).
APPLICATION_ID = 0x50525352

MIGRATIONS: tuple[str, ...] = (
    # 1: players, table sessions, their seats and the journal of actions.
    f"""
    PRAGMA application_id = {APPLICATION_ID};
    CREATE TABLE players (
        id       INTEGER PRIMARY KEY,
        name     TEXT NOT NULL UNIQUE COLLATE NOCASE,
        created  TEXT NOT NULL,
        profile  TEXT NOT NULL DEFAULT '{{}}'
    );
    CREATE TABLE sessions (
        id        INTEGER PRIMARY KEY,
        game      TEXT NOT NULL,
        config    TEXT NOT NULL,
        seed      INTEGER NOT NULL,
        created   TEXT NOT NULL,
        updated   TEXT NOT NULL,
        cursor    INTEGER NOT NULL DEFAULT 0,
        finished  INTEGER NOT NULL DEFAULT 0,
        result    TEXT,
        hardware  TEXT NOT NULL DEFAULT '{{}}'
    );
    CREATE TABLE seats (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seat       INTEGER NOT NULL,
        player_id  INTEGER NOT NULL REFERENCES players(id),
        PRIMARY KEY (session_id, seat)
    );
    CREATE TABLE actions (
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL,
        action     TEXT NOT NULL,
        created    TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
    );
    CREATE INDEX sessions_by_state ON sessions (finished, updated);
    """,
    # 2: every game gets a lasting id (kept through export and import, so a second import
    # of the same game is recognised) and every journal entry the hash that chains it to
    # the entries before it (a writer names the hash it saw; see companion.store.journal).
    """
    ALTER TABLE sessions ADD COLUMN uuid TEXT;
    ALTER TABLE actions ADD COLUMN hash TEXT;
    """,
    # 3: a seat keeps the name its player had at that table (the name the game's journal,
    # result and exports use) while player_id says whose profile it counts for, so a
    # profile can be renamed or merged without rewriting any game (its journal, hashes
    # and exports stay as they were).
    """
    ALTER TABLE seats ADD COLUMN name TEXT;
    UPDATE seats SET name = (SELECT p.name FROM players p WHERE p.id = seats.player_id);
    CREATE INDEX seats_by_player ON seats (player_id);
    """,
)

#: Python steps run after a migration's SQL, in its transaction: version -> step name.
PYTHON_STEPS: dict[int, str] = {2: "fill_ids_and_hashes"}

#: SQL run after the Python step of a migration (indexes on the values it filled in).
AFTER_STEPS: dict[int, str] = {
    2: "CREATE UNIQUE INDEX sessions_by_uuid ON sessions (uuid);",
}

SCHEMA_VERSION = len(MIGRATIONS)
