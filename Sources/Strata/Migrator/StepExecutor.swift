import Foundation
import GRDB

/// The work of one `VersionStep` inside its `BEGIN IMMEDIATE` transaction, as calls the migration loop
/// (`Migrator.run`) makes in order: `transaction` around it all, `apply` (schema changes, copies, checks),
/// then `record` (metadata and history row). The loop adds the step report and the hooks.
///
/// Every step runs with foreign keys off (set outside the transaction and checked, SPEC §11.4), so that no
/// `ON DELETE` action fires while a table is dropped and re-created or when users' SQL deletes rows, and so that
/// set-based work does not pay SQLite's per-row checks. What could break a reference is checked before commit
/// instead, each where it happens: rebuilds and drops end with `PRAGMA foreign_key_check`; `sql:` steps and
/// Swift stages check the tables their writes can break (`SQLStepRunner.checkForeignKeys`); batch inserts check
/// the keys that can dangle and batch deletes the user's own tables (`BatchExecutor+References`). The other
/// inferred operations copy existing references or set them to NULL, and links set keys read from the other
/// table: they cannot leave a dangling one.
enum StepExecutor {
    /// Runs `body` in the step's `BEGIN IMMEDIATE` transaction, foreign keys off around it; the transaction
    /// commits when `body` returns and rolls back when it throws.
    /// - Returns: nil when the work ran; the store's metadata when another run had applied the step already
    ///   (seen under the write lock): then nothing was done.
    static func transaction(_ step: VersionStep, on db: Database, _ body: () throws -> Void) throws -> StoreMetadata? {
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        guard try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 0 else { throw MigrationError.foreignKeysStillOn }
        var skippedAt: StoreMetadata?
        do {
            try db.inTransaction(.immediate) {
                // Re-read the version under the write lock: a run through another path or lock file may have
                // applied this step since we planned it, and a step must never apply twice (SPEC §9).
                guard let version = try StoreMetadata.version(db) else { throw StoreError.other("the store lost its Strata metadata during the run") }
                if version >= step.toVersion {
                    skippedAt = try StoreMetadata.read(db)
                    return .rollback
                }
                guard version == step.fromVersion else {
                    throw MigrationError.storeChanged(expected: step.fromVersion, found: version)
                }
                try body()
                return .commit
            }
        } catch {
            try? db.execute(sql: "PRAGMA foreign_keys = ON")   // the error that stopped the step wins
            throw error
        }
        try restoreForeignKeys(db)
        return skippedAt
    }

    /// The step's operations: schema changes, copies, checks.
    /// - Parameters:
    ///   - changes: gets the objects the step gave new IDs (`remapped`; their IDs when `collectObjectIDs`).
    /// - Returns: warnings (e.g. a user view that could not be re-created).
    static func apply(_ step: VersionStep, on db: Database, storeUUID: String, options: MigrationOptions,
                      changes: inout ChangeSet, collectObjectIDs: Bool = false) throws -> [String] {
        var warnings: [String] = []
        var saved: [UserSchemaObject] = []
        for operation in step.operations {
            switch operation {
            case .execute(let statement):
                try db.execute(statement)
            case .copy(let statement):
                // A table copy (rebuild, moved links) is the long part: report SQLite's estimate of rows done.
                // One statement, not `_pk` ranges: ranges of 10,000 rows made a 1,000,000-row rebuild
                // 15% slower (median of 20 runs: 2.87 s against 2.49 s), so they were removed.
                let progress = options.progressSink.map {
                    ProgressCounter(label: "v\(step.fromVersion)→v\(step.toVersion) copy", total: nil, sink: $0)
                }
                try db.reportingEstimatedProgress(progress) { try db.execute(statement) }
            case .check(let check):
                let violation = try run(check, db: db, storeUUID: storeUUID)
                if let violation { throw MigrationError.violations(fromVersion: step.fromVersion, toVersion: step.toVersion, [violation]) }
            case .saveUserObjects:
                let managed = (step.sourceLayout.tables + step.destinationLayout.tables).flatMap(\.indexes).map(\.name)
                saved = try UserSchemaObject.saveAndDrop(db, step: step, managedIndexes: Set(managed))
            case .restoreUserObjects:
                warnings += try UserSchemaObject.restore(saved, step: step, db: db)
            case .remapped(let list, let counts):
                if collectObjectIDs {
                    // Streamed: one row at a time, however many objects got new IDs.
                    let rows = try Row.fetchCursor(db, list)
                    while let row = try rows.next() {
                        let new = ObjectID(storeUUID: storeUUID, entity: row[2], primaryKey: row[3])
                        changes.remapped[new.entity, default: []].append(.init(old: ObjectID(storeUUID: storeUUID, entity: row[0], primaryKey: row[1]), new: new))
                        changes.remappedCounts[new.entity, default: 0] += 1
                    }
                } else {
                    for row in try Row.fetchAll(db, counts) { changes.remappedCounts[row[0], default: 0] += row[1] as Int }
                }
            case .foreignKeyCheck:
                let rows = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
                if !rows.isEmpty {
                    throw MigrationError.foreignKeyViolations(fromVersion: step.fromVersion, toVersion: step.toVersion, rows.map {
                        .init(table: $0[0], rowid: $0[1], parent: $0[2])
                    })
                }
            }
            try options.afterOperation?(operation)
        }
        return warnings
    }

    /// Writes the destination's metadata and the step's history row.
    /// - Returns: the store's metadata after the step.
    static func record(_ step: VersionStep, on db: Database, from metadata: StoreMetadata, destination: Model,
                       started: Date) throws -> StoreMetadata {
        var newMetadata = StoreMetadata(storeUUID: metadata.storeUUID, model: destination, layout: step.destinationLayout,
                                        createdAtVersion: metadata.createdAtVersion)
        newMetadata.modelYAML = destination.source
        try newMetadata.write(db)
        let summary = step.tableActions.map { "\($0.kind.rawValue) \($0.table)" }.joined(separator: ", ")
        try History.record(db, kind: "migrate", from: step.fromVersion, to: step.toVersion, started: started, finished: Date(),
                           details: (summary.isEmpty ? "metadata only" : summary) + (step.mappingFile.map(MappingState.detailsSuffix) ?? ""))
        return newMetadata
    }

    /// Turns foreign keys back on after a step that turned them off, and checks that they are.
    /// - Throws: ``MigrationError/foreignKeysNotRestored(detail:)`` (the caller stops using the connection).
    static func restoreForeignKeys(_ db: Database) throws {
        do {
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            guard try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 1 else {
                throw MigrationError.foreignKeysNotRestored(detail: "PRAGMA foreign_keys still reads 0")
            }
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError.foreignKeysNotRestored(detail: (error as? DatabaseError)?.message ?? "\(error)")
        }
    }

    /// Runs a check; rows are `(_pk, entity, values…)`.
    static func run(_ check: MigrationCheck, db: Database, storeUUID: String) throws -> MigrationViolation? {
        let rows = try Row.fetchAll(db, check.statement).map { row -> MigrationViolation.Row in
            let values = check.kind == .duplicates ? (2..<row.count).map { Value(databaseValue: row[$0] as DatabaseValue) } : []
            return (row[0], row[1], values)
        }
        return MigrationViolation(check, rows: rows, storeUUID: storeUUID)
    }
}
