-- wrk script of the benchmark's reserve-then-settle case (bench/Bench.java runs it; see docs/PERFORMANCE.md).
-- One unit of work is two requests on one account: POST /api/tokens/reservations {"amount": 10}, then
-- POST /api/tokens/reservations/{id}/settle {"amount": 7} with the id the first answered. Each thread keeps
-- the ids its reserves got and settles them first, so every connection alternates reserve and settle.
--
-- Arguments after "--": KEY
-- Prints one line "BENCH name=value ..." like wrk.lua, with the statuses tallied.

local threads = {}
local key = nil
local pending = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    statuses = {}
    key = args[1]
end

function request()
    if key == nil then
        return wrk.format()
    end
    local headers = { ["X-ApiKey"] = key, ["Content-Type"] = "application/json" }
    local id = table.remove(pending)
    if id ~= nil then
        return wrk.format("POST", "/api/tokens/reservations/" .. id .. "/settle", headers, '{"amount": 7}')
    end
    return wrk.format("POST", "/api/tokens/reservations", headers, '{"amount": 10, "expiresInSeconds": 600}')
end

function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
    if status == 201 then
        local id = body:match('"reservationId":"(rsv_[0-9a-z]+)"')
        if id ~= nil then
            table.insert(pending, id)
        end
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
