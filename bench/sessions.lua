-- wrk script: GET /v1/sessions/{id} for ids drawn at random from a file, one id per line (bench/read-latency.sh).
--   wrk -t1 -c64 -d20s --latency -s bench/sessions.lua -H "Authorization: Bearer $KEY" $QUERY_URL -- ids.txt [hot]
-- With [hot] = N, only the first N ids are drawn (a working set that fits the cache); default: all of them.
local ids = {}
local counter = 0

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then ids[#ids + 1] = line end
  end
  if args[2] then
    local hot = tonumber(args[2])
    while #ids > hot do table.remove(ids) end
  end
  counter = counter + 1
  math.randomseed(os.time() * 1000 + counter)
end

function request()
  return wrk.format("GET", "/v1/sessions/" .. ids[math.random(#ids)])
end
