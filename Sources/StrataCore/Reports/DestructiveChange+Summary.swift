import Foundation

extension StepReport.DestructiveChange {
    /// `removeAttribute Recipe.notes` (the change's kind and target, without its detail).
    var subject: String {
        let head = change.split(separator: ":", maxSplits: 1).first.map(String.init) ?? change
        return head.hasSuffix(" [destructive]") ? String(head.dropLast(" [destructive]".count)) : head
    }

    /// What `count` counts: values (attributes), links (relationships) or objects (entities).
    var noun: String {
        if change.hasPrefix("removeAttribute") { return count == 1 ? "value" : "values" }
        if change.hasPrefix("removeRelationship") { return count == 1 ? "link" : "links" }
        return count == 1 ? "object" : "objects"
    }

    /// `removeAttribute Recipe.notes: 312 values dropped (e.g. "Stir well", "Serve cold")`. Sample
    /// values are shown as recorded: strings quoted, numbers bare.
    var summary: String {
        var text = "\(subject): \(MigrationText.number(count)) \(noun) dropped"
        if !sampleValues.isEmpty { text += " (e.g. " + sampleValues.joined(separator: ", ") + ")" }
        return text
    }
}
