import Strata
import StrataCLI

var stages = Stages()

// Declared by migrations/tidy-names.yaml (`swift: true`, `revision: "1"`, `writes: [Contact]`): runs once per
// store, in the transaction of the step reaching v2, and Contact is audited before it commits.
stages.register("tidy-names", revision: "1") { ctx in
    let contact = try ctx.table("Contact")
    let name = try ctx.column("name", of: "Contact"), first = try ctx.column("firstName", of: "Contact")
    // v2 adds `firstName`; fill it from the first word of the name, trimmed.
    try ctx.execute("""
        UPDATE \(contact) SET \(name) = trim(\(name)),
            \(first) = CASE WHEN instr(trim(\(name)), ' ') > 0 THEN substr(trim(\(name)), 1, instr(trim(\(name)), ' ') - 1)
                            ELSE trim(\(name)) END
        """)
}

await StrataCommand.main(stages: stages)
