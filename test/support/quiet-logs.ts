// Tests provoke errors on purpose; their JSON log lines would bury jest's report. A test that
// checks logs raises the level itself (logger.setLogLevel).
process.env.POWERTOOLS_LOG_LEVEL ??= "SILENT";
// Nor their EMF metric records; test/observability/request-metrics.test.ts turns them on.
process.env.POWERTOOLS_METRICS_DISABLED ??= "true";
