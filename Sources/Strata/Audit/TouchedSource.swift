import StrataCore

/// Where the touched audit after a batch finds the rows the batch changed.
enum TouchedSource: Sendable {
    /// `temp.strata_touched`, by table: what the steps of a hook or a stage, and inserts, deletes and links,
    /// recorded there.
    case recorded
    /// `temp.strata_batch_keys`: the keys one batch update matched, all of `table`, left there by the update.
    case keys(table: String)
    /// The rows of `table` that `condition` matches (nil: every row): one batch update whose condition holds
    /// after it (`BatchUpdatePlan.conditionHoldsAfterUpdate`), which changed `count` rows and recorded no keys.
    case matching(table: String, condition: SQLText?, count: Int)
}
