import Foundation
import Testing
@testable import Strata
import StrataTestSupport

/// Every code block of README.md and Docs/*.md is either checked by this test or marked illustrative
/// (Docs/README.md, "Code blocks"):
/// - a fence whose info string has the word `illustrative` (```` ```swift illustrative ````) is an illustration;
/// - a block right after `<!-- checked: PATH -->` must appear verbatim in the repository file PATH (a file
///   that is compiled and run: the Examples package, a test);
/// - a block right after `<!-- checked: hook -->` must load as a hook file.
@Suite struct DocsCodeBlockTests {
    struct Block {
        var file: String
        var line: Int
        var info: String
        var marker: String?
        var text: String
        var location: String { "\(file):\(line)" }
    }

    static let root = TestStore.packageRoot

    static var documents: [String] {
        let docs = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/Docs")) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
        return ["README.md"] + docs
    }

    /// The fenced blocks of a Markdown text, with the `<!-- checked: … -->` marker on the line before each.
    static func blocks(in text: String, file: String) -> [Block] {
        var blocks: [Block] = []
        var open: Block?
        var previous = ""
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if trimmed == "```" {
                    block.text = String(block.text.dropLast())   // the last newline
                    blocks.append(block)
                    open = nil
                } else {
                    block.text += line + "\n"
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                let marker = previous.hasPrefix("<!-- checked:") && previous.hasSuffix("-->")
                    ? previous.dropFirst("<!-- checked:".count).dropLast("-->".count).trimmingCharacters(in: .whitespaces) : nil
                open = Block(file: file, line: index + 1, info: String(trimmed.dropFirst(3)), marker: marker, text: "")
            }
            previous = trimmed
        }
        if let open { blocks.append(Block(file: file, line: open.line, info: "unclosed", marker: nil, text: "")) }
        return blocks
    }

    static var allBlocks: [Block] {
        documents.flatMap { file in
            blocks(in: (try? String(contentsOfFile: root + "/" + file, encoding: .utf8)) ?? "", file: file)
        }
    }

    @Test func everyBlockIsCheckedOrMarkedIllustrative() {
        let blocks = Self.allBlocks
        #expect(blocks.count > 30)
        let unmarked = blocks.filter { $0.marker == nil && !$0.info.split(separator: " ").contains("illustrative") }
        #expect(unmarked.map(\.location) == [], "mark each as ```lang illustrative, or check it (<!-- checked: PATH -->)")
    }

    @Test func checkedBlocksAppearInTheFilesTheyName() throws {
        let checked = Self.allBlocks.filter { $0.marker != nil && $0.marker != "hook" }
        #expect(!checked.isEmpty)
        for block in checked {
            let path = Self.root + "/" + block.marker!
            let source = try #require(try? String(contentsOfFile: path, encoding: .utf8), "\(block.location): no file \(block.marker!)")
            #expect(source.contains(block.text), "\(block.location) differs from \(block.marker!)")
        }
    }

    @Test func checkedHookBlocksLoad() throws {
        for block in Self.allBlocks where block.marker == "hook" {
            #expect(throws: Never.self, "\(block.location)") { try HookLoader.load(yaml: block.text, file: block.location) }
        }
    }

    @Test func theScannerFindsMarkersAndIllustrations() {
        let text = """
            Intro.

            <!-- checked: Examples/RecipesApp/Package.swift -->
            ```swift
            let a = 1
            ```

            ```sh illustrative
            strata lint
            ```
            ```
            bare
            ```
            """
        let blocks = Self.blocks(in: text, file: "x.md")
        #expect(blocks.map { "\($0.line) \($0.info) \($0.marker ?? "-") \($0.text)" }
                == ["4 swift Examples/RecipesApp/Package.swift let a = 1", "8 sh illustrative - strata lint", "11  - bare"])
    }
}
