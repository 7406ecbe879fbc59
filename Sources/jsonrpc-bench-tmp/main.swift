import ConformanceJSONRPC
if CommandLine.arguments.contains("--serve-trivial-adapter") {
    await JSONRPCBenchmark.serveTrivialAdapter()
} else {
    let result = try await JSONRPCBenchmark.run(adapterCommand: "'\(CommandLine.arguments[0])' --serve-trivial-adapter")
    print(result)
}
