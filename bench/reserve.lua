-- wrk script of the benchmark's reserve-then-settle case (bench/Bench.java runs it; see docs/PERFORMANCE.md).
-- One pair is two requests on one account: POST /api/tokens/reservations {"amount": 10}, then
-- POST /api/tokens/reservations/{id}/settle {"amount": 7} with the id the first answered, under the same key.
-- Each thread keeps the ids its reserves got and settles them first, so every connection alternates
-- reserve and settle.
--
-- Arguments after "--": KEY | @FILE
--   KEY    every reserve is made with this caller key;
--   @FILE  one key per line; each reserve takes the next key, and its settle the same key: the reserve
--          sends the key's line number as X-Request-Id, which the server echoes in its answer.
-- Prints one line "BENCH name=value ..." as wrk.lua does, with the statuses tallied.

-- The rest (setup, and done's "BENCH" line) is wrk.lua's, loaded from beside this file.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "wrk.lua")

local keys = nil
local position = 1
local pending = {}

function init(args)
    statuses = {}
    local key = args[1]
    keys = {}
    if key ~= nil and key:sub(1, 1) == "@" then
        for line in io.lines(key:sub(2)) do
            if line ~= "" then
                keys[#keys + 1] = line
            end
        end
    elseif key ~= nil then
        keys = { key }
    end
    -- Threads start at different keys so that they do not walk the accounts in step.
    position = (thread_index * 7919) % #keys + 1
end

local function headers(key)
    return { ["X-ApiKey"] = key, ["Content-Type"] = "application/json" }
end

function request()
    if keys == nil then
        return wrk.format()
    end
    local held = table.remove(pending)
    if held ~= nil then
        return wrk.format("POST", "/api/tokens/reservations/" .. held.id .. "/settle", headers(held.key),
            '{"amount": 7}')
    end
    local h = headers(keys[position])
    if #keys > 1 then
        h["X-Request-Id"] = "k" .. position
    end
    position = position % #keys + 1
    return wrk.format("POST", "/api/tokens/reservations", h, '{"amount": 10, "expiresInSeconds": 600}')
end

function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
    if status == 201 then
        local id = body:match('"reservationId":"(rsv_[0-9a-z]+)"')
        local key = keys[1]
        if #keys > 1 then
            local echoed = headers["X-Request-Id"] or headers["x-request-id"] or ""
            key = keys[tonumber(echoed:match("^k([0-9]+)$") or "0")]
        end
        if id ~= nil and key ~= nil then
            table.insert(pending, { id = id, key = key })
        end
    end
end
