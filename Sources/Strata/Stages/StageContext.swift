import Foundation
import GRDB

/// A batch request a stage makes through its context, for an engine other than SQLite to run.
package enum StageBatchRequest: Sendable {
    case update(BatchUpdateRequest)
    case delete(BatchDeleteRequest)
}

/// What a Swift stage's closure gets (SPEC §11.2): the store inside its step's transaction, the run's
/// `$NOW` and `--var` values, and the layout recorded at the version the stage runs on (the version below N
/// for `before: N`, N for `after: N`). Everything it does commits or rolls back with the step.
///
/// ```swift
/// stages.register("split-full-names", revision: "1") { ctx in
///     let person = try ctx.table("Person"), first = try ctx.column("firstName", of: "Person")
///     try ctx.execute("UPDATE \(person) SET \(first) = trim(\(first)) WHERE \(first) IS NOT NULL")
///     try ctx.batchUpdate(BatchUpdateRequest(entity: "Person", propertiesToUpdate: ["checked": .literal("true")]))
/// }
/// ```
public final class StageContext {
    /// The engine a stage runs on.
    public enum Engine: String, Sendable { case sqlite, postgresql }

    /// The stage's id.
    public let id: String
    /// `$NOW` as Strata stores dates: seconds since 1970, the same instant hook predicates see (`--now` pins it).
    public let now: Double
    /// The `--var` values by name.
    public let variables: [String: String]
    /// The store's layout at the model version the stage runs on (table and column names).
    public let layout: StoreLayout
    /// The model the stage runs on.
    public let model: Model
    public let engine: Engine
    /// Whether this is a dry run: the work happens on a private snapshot and is thrown away.
    public let isDryRun: Bool
    /// The GRDB database, inside the step's transaction, under the authorizer of `sql:` steps: transaction
    /// control, savepoints, ATTACH, PRAGMA, schema changes of the model's tables and writes to Strata's tables
    /// are refused (the stage then fails, exit 1). SQLite only: nil on a PostgreSQL store, where the
    /// engine-neutral methods (`execute`, `table`, `column`) run on the step's session instead.
    public let database: Database?
    /// On an engine other than SQLite (PostgreSQL): runs one statement in the step's transaction and returns
    /// the rows it changed. StrataPostgres supplies it (Docs/stages.md, "PostgreSQL").
    let remote: ((SQLText) throws -> Int)?
    /// On an engine other than SQLite: runs a batch request in the step's transaction, as a hook step does.
    let remoteBatch: ((StageBatchRequest) throws -> BatchResult)?
    /// On an engine other than SQLite: the column names and rows (in SQLite's storage forms) of one query.
    let remoteFetch: ((SQLText) throws -> (columns: [String], rows: [[Value]]))?

    let storeUUID: String
    let context: PredicateContext
    let recordTouched: Bool
    let collectObjectIDs: Bool
    /// What the batch requests made through this context changed.
    var changes = ChangeSet()
    /// The rows the batch requests matched.
    var rowsAffected = 0

    /// Armed while the stage's code runs; Strata's own batch statements run unarmed.
    let authorizer: SQLAuthorizer?

    /// A stage's context on SQLite: the step's GRDB `Database`, under `authorizer` while the stage runs.
    convenience init(id: String, model: Model, layout: StoreLayout, storeUUID: String, context: PredicateContext, isDryRun: Bool,
                     recordTouched: Bool, collectObjectIDs: Bool, database: Database, authorizer: SQLAuthorizer? = nil) {
        self.init(id: id, engine: .sqlite, model: model, layout: layout, storeUUID: storeUUID, context: context, isDryRun: isDryRun,
                  recordTouched: recordTouched, collectObjectIDs: collectObjectIDs, database: database, authorizer: authorizer,
                  remote: nil, remoteBatch: nil, remoteFetch: nil)
    }

    /// A stage's context on PostgreSQL: `execute` sends each statement through `execute`, and the batch
    /// requests go through `batch`, each run on the step's session inside the step's transaction (StrataPostgres
    /// blocks the stage's own thread meanwhile), and so do fetches, through `fetch`; `database` is nil.
    package convenience init(postgresql id: String, model: Model, layout: StoreLayout, storeUUID: String, context: PredicateContext,
                             isDryRun: Bool, collectObjectIDs: Bool, execute: @escaping (SQLText) throws -> Int,
                             batch: @escaping (StageBatchRequest) throws -> BatchResult,
                             fetch: @escaping (SQLText) throws -> (columns: [String], rows: [[Value]])) {
        self.init(id: id, engine: .postgresql, model: model, layout: layout, storeUUID: storeUUID, context: context, isDryRun: isDryRun,
                  recordTouched: false, collectObjectIDs: collectObjectIDs, database: nil, authorizer: nil,
                  remote: execute, remoteBatch: batch, remoteFetch: fetch)
    }

    private init(id: String, engine: Engine, model: Model, layout: StoreLayout, storeUUID: String, context: PredicateContext,
                 isDryRun: Bool, recordTouched: Bool, collectObjectIDs: Bool, database: Database?, authorizer: SQLAuthorizer?,
                 remote: ((SQLText) throws -> Int)?, remoteBatch: ((StageBatchRequest) throws -> BatchResult)?,
                 remoteFetch: ((SQLText) throws -> (columns: [String], rows: [[Value]]))?) {
        self.id = id
        self.engine = engine
        self.model = model
        self.layout = layout
        self.storeUUID = storeUUID
        self.context = context
        self.now = context.now
        self.variables = context.variables
        self.isDryRun = isDryRun
        self.recordTouched = recordTouched
        self.collectObjectIDs = collectObjectIDs
        self.database = database
        self.authorizer = authorizer
        self.remote = remote
        self.remoteBatch = remoteBatch
        self.remoteFetch = remoteFetch
        changes.hasObjectIDs = collectObjectIDs
    }

    /// What the batch requests made through this context changed, and the rows they matched.
    package var batchChanges: (changes: ChangeSet, rowsAffected: Int) { (changes, rowsAffected) }

    /// The SQLite database, or `StageError.notOnThisEngine` naming `what` needed it.
    func sqlite(_ what: String) throws -> Database {
        guard let database else { throw StageError.notOnThisEngine(stage: id, what: what, engine: engine.rawValue) }
        return database
    }

    /// `$NOW` as a `Date`.
    public var nowDate: Date { Date(timeIntervalSince1970: now) }

    /// Runs SQL (one or more statements) with bound arguments.
    /// On PostgreSQL, placeholders outside quotes, dollar quotes and comments are bound as GRDB binds them:
    /// `?` takes the positional `arguments` in order, `:name`, `@name` and `$name` the named ones (`::type` is a
    /// cast); several statements separated by semicolons run one after another.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        if let remote {
            for statement in try StageSQL.statements(sql, arguments: arguments, stage: id) { _ = try remote(statement) }
            return
        }
        try sqlite("execute(sql:)").execute(sql: sql, arguments: arguments)
    }

    /// Runs one statement built as an `SQLText` (names quoted by their types, values bound).
    public func execute(_ sql: SQLText) throws {
        if let remote {
            _ = try remote(sql)
            return
        }
        try sqlite("execute(_:)").execute(sql)
    }

    /// The table of `entity` in the recorded layout (a sub-entity's is its root's).
    /// - Throws: `StageError.unknownName` when the model has no such entity.
    public func table(_ entity: String) throws -> TableName {
        guard let storage = layout.storage(of: entity) else { throw StageError.unknownName(stage: id, name: entity) }
        return TableName(storage.table)
    }

    /// The column of attribute `property` of `entity` in the recorded layout.
    /// - Throws: `StageError.unknownName` when the entity has no such attribute.
    public func column(_ property: String, of entity: String) throws -> ColumnName {
        guard let column = layout.storage(of: entity)?.attributeColumns[property] else {
            throw StageError.unknownName(stage: id, name: "\(entity).\(property)")
        }
        return ColumnName(column)
    }

    /// Rows of a query.
    public func fetchAll(sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        if let remoteFetch { return try StageSQL.rows(remoteFetch(try StageSQL.query(sql, arguments: arguments, stage: id))) }
        return try Row.fetchAll(try sqlite("fetchAll(sql:)"), sql: sql, arguments: arguments)
    }

    /// The first row of a query, if any.
    public func fetchOne(sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        if remoteFetch != nil { return try fetchAll(sql: sql, arguments: arguments).first }
        return try Row.fetchOne(try sqlite("fetchOne(sql:)"), sql: sql, arguments: arguments)
    }

    /// A batch update on the stage's model, as a hook step runs it (its rows are audited after the stage); on
    /// both engines.
    @discardableResult
    public func batchUpdate(_ request: BatchUpdateRequest) throws -> BatchResult {
        if let remoteBatch {
            let result = try remoteBatch(.update(request))
            record(result)
            return result
        }
        let database = try sqlite("batchUpdate")
        let armed = authorizer?.armed ?? false
        authorizer?.armed = false   // Strata's own statements (its temporary tables included)
        defer { authorizer?.armed = armed }
        let result = try BatchExecutor.execute(request, in: database, model: model, layout: layout, storeUUID: storeUUID,
                                               context: context, recordTouched: recordTouched, collectObjectIDs: collectObjectIDs)
        record(result)
        return result
    }

    /// A batch delete on the stage's model (delete rules applied), as a hook step runs it.
    @discardableResult
    public func batchDelete(_ request: BatchDeleteRequest) throws -> BatchResult {
        if let remoteBatch {
            let result = try remoteBatch(.delete(request))
            record(result)
            return result
        }
        let database = try sqlite("batchDelete")
        let armed = authorizer?.armed ?? false
        authorizer?.armed = false
        defer { authorizer?.armed = armed }
        let result = try BatchExecutor.execute(request, in: database, model: model, layout: layout, storeUUID: storeUUID,
                                               context: context, recordTouched: recordTouched, collectObjectIDs: collectObjectIDs)
        record(result)
        return result
    }

    private func record(_ result: BatchResult) {
        changes.merge(result.changes)
        rowsAffected += result.count
    }
}
