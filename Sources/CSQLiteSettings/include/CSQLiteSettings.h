#ifndef STRATA_CSQLITESETTINGS_H
#define STRATA_CSQLITESETTINGS_H

/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0), which Swift cannot call (the function is variadic).
/// Returns SQLite's result code: SQLITE_OK, or SQLITE_MISUSE once SQLite is initialized in this process.
int strata_sqlite3_disable_memstatus(void);

#endif
