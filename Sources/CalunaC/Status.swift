import Caluna
import Glibc

enum CalunaStatus {
    static let ok: Int32 = 0
}

/// The library version and the ABI version the header states.
let calunaVersion = "0.1.0"
let calunaABIVersion: Int32 = 1
/// Grows with compatible additions (1: animations, presentation, timers, easing;
/// 2: transactions, layer actions, Transition; 3: images, contents, effects, drawing, stats;
/// 4: physics; 5: transforms, CATransformLayer; 6: input events and handlers; 7: specialised
/// layers; 8: the sandbox options and CALUNA_ERR_LIMIT).
let calunaABIMinorVersion: Int32 = 10

/// A C string that lives for the whole process.
func staticCString(_ s: String) -> UnsafePointer<CChar> {
    let bytes = Array(s.utf8)
    let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
    for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
    p[bytes.count] = 0
    return UnsafePointer(p)
}

private let versionString = staticCString(calunaVersion)

private let statusNames: [Int32: UnsafePointer<CChar>] = {
    let names: [(CalunaError.Code?, String)] = [
        (nil, "CALUNA_OK"),
        (.invalidArgument, "CALUNA_ERR_INVALID_ARGUMENT"),
        (.unknownKey, "CALUNA_ERR_UNKNOWN_KEY"),
        (.typeMismatch, "CALUNA_ERR_TYPE_MISMATCH"),
        (.notSupported, "CALUNA_ERR_NOT_SUPPORTED"),
        (.staleHandle, "CALUNA_ERR_STALE_HANDLE"),
        (.treeError, "CALUNA_ERR_TREE"),
        (.scriptError, "CALUNA_ERR_SCRIPT"),
        (.ioError, "CALUNA_ERR_IO"),
        (.outOfMemory, "CALUNA_ERR_OUT_OF_MEMORY"),
        (.limitReached, "CALUNA_ERR_LIMIT"),
    ]
    var d: [Int32: UnsafePointer<CChar>] = [:]
    for (code, name) in names { d[code?.rawValue ?? 0] = staticCString(name) }
    return d
}()
private let unknownStatusName = staticCString("CALUNA_ERR_UNKNOWN_STATUS")

// MARK: errors of calls without a usable engine (per thread)

private let threadErrorKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
}()
private let noThreadError = staticCString(
    "caluna_last_error: no engine given (NULL or not a live engine) and no call on this thread has failed without an engine")

/// Records the message of a call that failed before it had an engine.
func setThreadError(_ message: String) {
    let old = pthread_getspecific(threadErrorKey)
    // If the copy cannot be made, the slot is cleared rather than left stale.
    pthread_setspecific(threadErrorKey, strdup(message))
    free(old)
}

func threadError() -> UnsafePointer<CChar> {
    guard let p = pthread_getspecific(threadErrorKey) else { return noThreadError }
    return UnsafePointer(p.assumingMemoryBound(to: CChar.self))
}

/// A failure of a call that has no engine to hold its message.
func failWithoutEngine(_ function: String, _ error: Error) -> Int32 {
    let e = calunaError(error, function)
    setThreadError(e.message)
    return e.code.rawValue
}

// MARK: exports

@_cdecl("caluna_version")
public func caluna_version() -> UnsafePointer<CChar> { versionString }

@_cdecl("caluna_abi_version")
public func caluna_abi_version() -> Int32 { calunaABIVersion }

@_cdecl("caluna_abi_minor_version")
public func caluna_abi_minor_version() -> Int32 { calunaABIMinorVersion }

@_cdecl("caluna_status_name")
public func caluna_status_name(_ status: Int32) -> UnsafePointer<CChar> {
    statusNames[status] ?? unknownStatusName
}

@_cdecl("caluna_last_error")
public func caluna_last_error(_ e: UnsafeRawPointer?) -> UnsafePointer<CChar> {
    guard let ce = lookupEngine(e) else { return threadError() }
    return ce.lastError
}
