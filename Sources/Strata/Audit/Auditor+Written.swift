import GRDB

extension Auditor {
    /// `touched` with the given entities audited in full (what `sql:` steps wrote, SPEC §11.4): each rule's
    /// result over the whole entity replaces its result over the touched rows.
    static func including(entities: [String], in touched: AuditResult, db: Database, model: Model, layout: StoreLayout,
                          storeUUID: String, context: PredicateContext, maxSamples: Int) throws -> AuditResult {
        let known = entities.filter { model.entity($0) != nil }
        guard !known.isEmpty else { return touched }
        var auditor = Auditor(model: model, layout: layout, storeUUID: storeUUID, now: context.now)
        auditor.variables = context.variables
        let full = try auditor.run(in: db, scope: .entities(known), maxSamples: maxSamples)
        return touched.including(full, entities: known)
    }
}
