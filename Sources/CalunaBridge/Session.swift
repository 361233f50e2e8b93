import Caluna

/// One engine as seen from outside Swift: the engine, its id table and the
/// last error message. The C ABI hands out a pointer to a Session; the Lua
/// binding keeps one per Lua state.
public final class Session {
    public private(set) var engine: Engine
    public private(set) var handles = HandleTable()
    public var lastError: String = ""
    public var lastErrorCode: CalunaError.Code? = nil

    public init(size: Size = Engine.defaultSize, scale: Double = 1) throws {
        engine = try Engine(size: size, scale: scale)
    }

    /// Replaces the engine with a fresh one (the test runner does this between
    /// tests). Ids of the old engine become foreign.
    public func reset(size: Size, scale: Double) throws {
        let e = try Engine(size: size, scale: scale)
        engine = e
        handles = HandleTable()
    }

    /// Runs `body`, recording any error as the last error.
    @discardableResult
    public func record<T>(_ body: () throws -> T) -> Result<T, CalunaError> {
        do {
            let v = try body()
            return .success(v)
        } catch let e as CalunaError {
            lastError = e.message
            lastErrorCode = e.code
            return .failure(e)
        } catch {
            let e = CalunaError(.scriptError, "\(error)")
            lastError = e.message
            lastErrorCode = e.code
            return .failure(e)
        }
    }
}
