-- wrk script: POST /v1/events:batch bodies of ITEMS `messages` items (a new session each) with MESSAGES messages of
-- CONTENT bytes each, and counts the events ingest accepted (bench/ingest-throughput.sh).
--   wrk -t1 -c8 -d30s -s bench/ingest-batch.lua -H "Authorization: Bearer $KEY" $INGEST_URL -- [items] [messages] [content]
local threads = {}
local items, messages, content = 50, 2, 200
local prefix, counter = "", 0
accepted, failed = 0, 0

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  items = tonumber(args[1] or items)
  messages = tonumber(args[2] or messages)
  content = tonumber(args[3] or content)
  prefix = string.format("bench-%d-%d-%d-", os.time(), math.random(1, 1e9), id)
  wrk.method = "POST"
  wrk.path = "/v1/events:batch"
  wrk.headers["Content-Type"] = "application/json"
end

-- Every item carries the same messages; only its session id differs. The rest of an item after its session id is
-- built once, so the generator spends little of the two cores it shares with the service it measures.
local rest = nil

function request()
  if rest == nil then
    local filler = string.rep("x", content)
    local ms = {}
    for m = 0, messages - 1 do
      ms[#ms + 1] = '{"message_index": ' .. m .. ', "role": "user", "content": "' .. filler .. '"}'
    end
    rest = '", "body": {"messages": [' .. table.concat(ms, ",") .. ']}}'
  end
  local parts = {}
  for i = 1, items do
    counter = counter + 1
    parts[i] = '{"type": "messages", "session_id": "' .. prefix .. counter .. rest
  end
  return wrk.format(nil, nil, nil, '{"items": [' .. table.concat(parts, ",") .. ']}')
end

function response(status, headers, body)
  local n = status == 200 and tonumber(string.match(body, '"accepted":(%d+)')) or nil
  if n then
    accepted = accepted + n * messages
  else
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local total, bad = 0, 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("accepted")
    bad = bad + thread:get("failed")
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("ingest POST /v1/events:batch: %d events in %.1f s = %d events/s (%d failed requests; "
      .. "latency p50 %.1f ms, p99 %.1f ms)\n", total, seconds, math.floor(total / seconds), bad,
      latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
