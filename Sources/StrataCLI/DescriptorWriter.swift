import Foundation

/// Writes text to a file descriptor with `write(2)`, retried when a signal interrupts it. Text a stream
/// cannot take (standard error closed, or on a full disk) is dropped: Foundation's `FileHandle.write(_:)`
/// stops the process there, and a message about a failed message has nowhere to go.
enum DescriptorWriter {
    static func write(_ text: String, to fileDescriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
            offset += n
        }
    }
}
