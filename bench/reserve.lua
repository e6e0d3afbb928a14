-- wrk script of the benchmark's reserve-then-settle case (bench/Bench.java runs it; see docs/PERFORMANCE.md).
-- One unit of work is two requests on one account: POST /api/tokens/reservations {"amount": 10}, then
-- POST /api/tokens/reservations/{id}/settle {"amount": 7} with the id the first answered. Each thread keeps
-- the ids its reserves got and settles them first, so every connection alternates reserve and settle.
--
-- Arguments after "--": KEY
-- Prints one line "BENCH name=value ..." as wrk.lua does, with the statuses tallied.

-- The rest (setup, and done's "BENCH" line) is wrk.lua's, loaded from beside this file.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "wrk.lua")

local key = nil
local pending = {}

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
