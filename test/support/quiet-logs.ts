// Tests provoke errors on purpose; their JSON log lines would bury jest's report. A test that
// checks logs raises the level itself (logger.setLogLevel).
process.env.POWERTOOLS_LOG_LEVEL ??= "SILENT";
