import Foundation
import Testing

/// File names and arguments that are not UTF-8 text. Swift's `CommandLine.arguments` repairs invalid bytes to
/// U+FFFD, so `--store tenants/caf\xE9.sqlite` (a Latin-1 name) was `no store at 'tenants/caf�.sqlite'`, exit 2,
/// although the file exists, and with `--create` made a new store named with U+FFFD (exit 0); FileManager left
/// such a name out, so `--stores 'tenants/*.sqlite'` skipped the store. Both are exit 2, naming the bytes.
@Suite struct NotUTF8NamesCLITests {
    static let hint = "hint: Strata reads every argument as UTF-8 text: rename the file or folder to a UTF-8 name\n"

    /// A project with `tenants/a.sqlite` and its copy `tenants/caf\xE9.sqlite`.
    static func project() throws -> FleetProject {
        let project = try FleetProject()
        try project.store("tenants/a.sqlite")
        #expect(try shell(#"cp tenants/a.sqlite "$(printf 'tenants/caf\351.sqlite')""#, in: project.dir).status == 0)
        return project
    }

    /// `strata` run by /bin/sh, so that `$(printf '\351')` passes the raw byte (a Swift `String` cannot).
    static func shell(_ script: String, in dir: String) throws -> CLI.Result {
        try CLI.run(["-c", "strata() { \"$STRATA\" \"$@\"; }; " + script], in: dir, environment: ["STRATA": CLI.binary], executable: "/bin/sh")
    }

    /// The files in `tenants/`, their names' bytes escaped as `ls -b` does.
    static func listing(_ dir: String) throws -> String {
        try shell("ls -b tenants | grep -v strata.lock", in: dir).stdout
    }

    @Test func aGlobMatchingSuchANameIsExit2() throws {
        let project = try Self.project()
        let run = try Self.shell("strata status --stores 'tenants/*.sqlite'", in: project.dir)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == """
            error: --stores 'tenants/*.sqlite' matches 'tenants/caf\\xE9.sqlite', whose name is not UTF-8 text
            hint: rename it to a UTF-8 name (Strata names every store as UTF-8 text in its messages, reports and JSON)

            """, "\(run.stderr)")
        // A folder `**` would enter is named too; a name the glob does not match is no concern.
        #expect(try Self.shell(#"mkdir "$(printf 'tenants/d\351')""#, in: project.dir).status == 0)
        let deep = try Self.shell("strata status --stores 'tenants/**/a.sqlite'", in: project.dir)
        #expect(deep.status == 2)
        #expect(deep.stderr.hasPrefix("error: --stores 'tenants/**/a.sqlite' matches 'tenants/d\\xE9', whose name is not UTF-8 text\n"), "\(deep.stderr)")
        let other = try Self.shell("strata status --stores 'tenants/a*' --format json", in: project.dir)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try FleetProject.codes(other.stdout) == ["tenants/a.sqlite: 0"])
    }

    /// `--store` with such a name is exit 2 up front, also with `--create`, which made `caf\357\277\275.sqlite`.
    @Test(arguments: ["status", "migrate --create"])
    func aStorePathIsExit2UpFront(_ command: String) throws {
        let project = try Self.project()
        let before = try Self.listing(project.dir)
        let run = try Self.shell("strata \(command) --store \"$(printf 'tenants/n\\351w.sqlite')\"", in: project.dir)
        #expect(run.status == 2)
        #expect(run.stderr == "error: the argument 'tenants/n\\xE9w.sqlite' (after --store) is not UTF-8 text\n" + Self.hint, "\(run.stderr)")
        #expect(try Self.listing(project.dir) == before)
        #expect(before == "a.sqlite\ncaf\\351.sqlite\n")
    }

    /// Every option takes the same check, in the one place the arguments are read; `--format json` gets
    /// one JSON document.
    @Test(arguments: [
        ("status --models \"$(printf 'm\\351')\"", "m\\xE9' (after --models)"),
        ("status --migrations=\"$(printf 'h\\351')\"", "--migrations=h\\xE9'"),
        ("migrate --store tenants/a.sqlite --backup \"$(printf 'b\\351.sqlite')\"", "b\\xE9.sqlite' (after --backup)"),
        ("status --stores \"$(printf 'tenants/caf\\351*')\" --report r.txt", "tenants/caf\\xE9*' (after --stores)"),
        ("batch update --store tenants/a.sqlite --entity Recipe --set rating=1 --changes-out \"$(printf 'c\\351.json')\"", "c\\xE9.json' (after --changes-out)"),
        ("audit --store tenants/a.sqlite --report \"$(printf 'r\\351.txt')\"", "r\\xE9.txt' (after --report)"),
    ])
    func everyOptionIsChecked(_ command: String, _ named: String) throws {
        let project = try Self.project()
        let before = try Self.listing(project.dir)
        let hash = E2E.hash(project.dir + "/tenants/a.sqlite")
        let run = try Self.shell("strata " + command, in: project.dir)
        #expect(run.status == 2)
        #expect(run.stderr == "error: the argument '\(named) is not UTF-8 text\n" + Self.hint, "\(run.stderr)")
        #expect(try Self.listing(project.dir) == before)
        #expect(E2E.hash(project.dir + "/tenants/a.sqlite") == hash)
        let json = try Self.shell("strata " + command + " --format json", in: project.dir)
        #expect(json.status == 2)
        let error = try CLI.json(json.stdout)["error"] as? [String: Any]
        #expect((error?["diagnostics"] as? [[String: Any]])?.first?["message"] as? String == "the argument '\(named) is not UTF-8 text")
    }
}
