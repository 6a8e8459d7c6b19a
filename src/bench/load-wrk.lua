-- wrk script (load-wrk.ts): POSTs pre-signed SOAP requests. Thread k signs as API key k and takes
-- its own file of "timestamp signature" lines, strictly increasing, so each (APIKey, Operation,
-- Timestamp) is sent once. args: body parts P1..P4 (body = P1 ts P2 sig P3 apiKey P4), then a
-- file and an API key per thread. done() prints one JSON line of figures.
local threads, n = {}, 0
function setup(thread)
  thread:set("k", n)
  n = n + 1
  table.insert(threads, thread)
end

lines, i, wrapped = {}, 0, 0
function init(args)
  for line in io.lines(args[5 + 2 * k]) do lines[#lines + 1] = line end
  p1, p2, p3 = args[1], args[2], args[3] .. args[6 + 2 * k] .. args[4]
  wrk.method = "POST"
end

function request()
  i = i + 1
  if i > #lines then i, wrapped = 1, wrapped + 1 end -- ran out: repeats (replays), reported
  local l = lines[i]
  return wrk.format(nil, nil, nil, p1 .. l:sub(1, 24) .. p2 .. l:sub(26) .. p3)
end

function done(summary, latency)
  local w = 0
  for _, t in ipairs(threads) do w = w + t:get("wrapped") end
  -- utime and stime of this process (all threads), in clock ticks of 10 ms.
  local f = {}
  for x in io.open("/proc/self/stat"):read("*l"):match("%) (.*)"):gmatch("%S+") do f[#f + 1] = x end
  local e = summary.errors
  io.write(string.format('\n{"rps":%.1f,"p50":%.2f,"p99":%.2f,"non2xx":%d,"errors":%d,"cpuMs":%d,"wrapped":%d}\n',
    summary.requests / summary.duration * 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.status, e.connect + e.read + e.write + e.timeout, (tonumber(f[12]) + tonumber(f[13])) * 10, w))
end
