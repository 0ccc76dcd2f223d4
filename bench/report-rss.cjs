// Preloaded by bench/run.js: reports the process's peak resident memory (KiB) on stderr at exit.
process.on('exit', () => process.stderr.write(`\nmaxrss_kib=${process.resourceUsage().maxRSS}\n`));
