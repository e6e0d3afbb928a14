-- wrk script of the Pulseledger benchmark (bench/Bench.java runs it; see docs/PERFORMANCE.md).
-- Sends one kind of request and tallies every response status, so the harness can count the
-- 201s a client really received and compare them with the ledger afterwards.
--
-- Arguments after "--": METHOD PATH [KEY | @FILE]
--   KEY    sent as X-ApiKey on every request;
--   @FILE  one key per line; each request takes the next key, so the load spreads over the accounts.
-- With BENCH_TALLY=1 in the environment it also counts each status (see response below).
-- With BENCH_ACCEPT_ENCODING=gzip every request says it takes a gzipped body, as browsers and most
-- HTTP libraries do.
-- With BENCH_PAUSE_MS=N each connection waits N ms after every response before its next request,
-- so C connections send at most C * 1000 / N requests per second whatever the server does: a paced
-- load instead of as fast as wrk can go (bench/flood.sh paces its flood this way).
-- Prints one line "BENCH name=value ..." with the throughput, latency percentiles and statuses.

local threads = {}
local prepared = nil -- per thread: the list of ready-made requests
local position = 1

function setup(thread)
    thread:set("thread_index", #threads)
    table.insert(threads, thread)
end

local function read_keys(file)
    local keys = {}
    for line in io.lines(file) do
        if line ~= "" then
            keys[#keys + 1] = line
        end
    end
    return keys
end

function init(args)
    statuses = {}
    local method, path, key = args[1], args[2], args[3]
    local keys = {}
    if key ~= nil and key:sub(1, 1) == "@" then
        keys = read_keys(key:sub(2))
    elseif key ~= nil then
        keys = { key }
    end
    local accept_encoding = os.getenv("BENCH_ACCEPT_ENCODING") or ""
    local function headers(k)
        local h = {}
        if k ~= nil then
            h["X-ApiKey"] = k
        end
        if accept_encoding ~= "" then
            h["Accept-Encoding"] = accept_encoding
        end
        return h
    end
    prepared = {}
    if #keys == 0 then
        prepared[1] = wrk.format(method, path, headers(nil))
    end
    for i, k in ipairs(keys) do
        prepared[i] = wrk.format(method, path, headers(k))
    end
    -- Threads start at different keys so that they do not walk the accounts in step.
    position = (thread_index * 7919) % #prepared + 1
end

function request()
    if prepared == nil then
        return wrk.format() -- wrk's own check of the script, before init
    end
    local r = prepared[position]
    position = position % #prepared + 1
    return r
end

local pause_ms = tonumber(os.getenv("BENCH_PAUSE_MS") or "")
if pause_ms ~= nil and pause_ms > 0 then
    function delay()
        return pause_ms
    end
end

-- Tallying makes wrk copy every body into Lua, which costs the client CPU it would otherwise leave
-- to the server; so only runs whose statuses are checked (BENCH_TALLY=1) tally.
if os.getenv("BENCH_TALLY") == "1" then
    function response(status, headers, body)
        statuses[status] = (statuses[status] or 0) + 1
    end
end

function done(summary, latency, requests)
    local tally = {}
    for _, thread in ipairs(threads) do
        for status, count in pairs(thread:get("statuses")) do
            tally[status] = (tally[status] or 0) + count
        end
    end
    local seconds = summary.duration / 1e6
    local line = string.format(
        "BENCH requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d max_us=%d"
            .. " connect_errors=%d read_errors=%d write_errors=%d timeouts=%d non_2xx_3xx=%d",
        summary.requests, seconds, summary.requests / seconds,
        latency:percentile(50), latency:percentile(99), latency.max,
        summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout,
        summary.errors.status)
    for status, count in pairs(tally) do
        line = line .. string.format(" status_%d=%d", status, count)
    end
    io.write(line .. "\n")
end
