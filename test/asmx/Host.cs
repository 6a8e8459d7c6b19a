// A small host for ASP.NET on Mono, written for the ASMX tier (Debian's xsp4 4.2 does not start on
// Mono 6.8: mono/mono#18500). It creates the ASP.NET application on a folder with
// System.Web.Hosting.ApplicationHost, listens on 127.0.0.1 on a port the system chooses, and hands
// each HTTP/1.1 request (read with a Content-Length body, answered with Connection: close) to
// HttpRuntime.ProcessRequest through a SimpleWorkerRequest that carries the method, headers and
// body and collects the status, headers and body. It prints "listening <url>" once it listens and
// exits when its standard input closes, so it never outlives the test that started it.
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Web;
using System.Web.Hosting;

public sealed class Exchange : SimpleWorkerRequest {
  readonly string method, path, query;
  readonly Dictionary<string, string> headers;
  readonly byte[] body;
  readonly int port;
  public int Status = 200;
  public readonly List<KeyValuePair<string, string>> Sent = new List<KeyValuePair<string, string>>();
  public readonly MemoryStream Answer = new MemoryStream();
  public readonly ManualResetEvent Done = new ManualResetEvent(false);

  public Exchange(string method, string path, string query, Dictionary<string, string> headers, byte[] body, int port)
    : base(path.TrimStart('/'), query, TextWriter.Null) {
    this.method = method; this.path = path; this.query = query; this.headers = headers; this.body = body; this.port = port;
  }

  // The .asmx file and what follows it (/Operation for HTTP GET and POST).
  string File() {
    int i = path.IndexOf(".asmx", StringComparison.OrdinalIgnoreCase);
    return i < 0 ? path : path.Substring(0, i + 5);
  }
  string Header(string name) { string v; return headers.TryGetValue(name.ToLowerInvariant(), out v) ? v : null; }

  public override string GetHttpVerbName() { return method; }
  public override string GetHttpVersion() { return "HTTP/1.1"; }
  public override string GetUriPath() { return path; }
  public override string GetFilePath() { return File(); }
  public override string GetPathInfo() { return path.Substring(File().Length); }
  public override string GetFilePathTranslated() { return Path.Combine(HttpRuntime.AppDomainAppPath, File().TrimStart('/')); }
  public override string GetQueryString() { return query; }
  public override string GetRawUrl() { return query.Length > 0 ? path + "?" + query : path; }
  public override string GetServerName() { return "127.0.0.1"; }
  public override int GetLocalPort() { return port; }
  public override string GetKnownRequestHeader(int index) { return Header(GetKnownRequestHeaderName(index)); }
  public override string GetUnknownRequestHeader(string name) { return Header(name); }
  public override string[][] GetUnknownRequestHeaders() {
    var unknown = new List<string[]>();
    foreach (var h in headers)
      if (GetKnownRequestHeaderIndex(h.Key) < 0) unknown.Add(new[] { h.Key, h.Value });
    return unknown.ToArray();
  }
  public override byte[] GetPreloadedEntityBody() { return body; }
  public override int GetPreloadedEntityBodyLength() { return body.Length; }
  public override int GetTotalEntityBodyLength() { return body.Length; }
  public override bool IsEntireEntityBodyIsPreloaded() { return true; }
  public override void SendStatus(int status, string description) { Status = status; }
  public override void SendKnownResponseHeader(int index, string value) {
    Sent.Add(new KeyValuePair<string, string>(GetKnownResponseHeaderName(index), value));
  }
  public override void SendUnknownResponseHeader(string name, string value) {
    Sent.Add(new KeyValuePair<string, string>(name, value));
  }
  public override void SendResponseFromMemory(byte[] data, int length) { Answer.Write(data, 0, length); }
  public override void FlushResponse(bool finalFlush) { }
  public override void EndOfRequest() { Done.Set(); }
}

public sealed class Host : MarshalByRefObject {
  const int MaxBody = 1 << 20;
  const int WaitMs = 30000;

  public override object InitializeLifetimeService() { return null; }

  public static void Main(string[] args) {
    var host = (Host)ApplicationHost.CreateApplicationHost(typeof(Host), "/", Path.GetFullPath(args[0]));
    var stdin = new Thread(() => { Console.In.ReadToEnd(); Environment.Exit(0); }) { IsBackground = true };
    stdin.Start();
    host.Serve();
  }

  public void Serve() {
    var listener = new TcpListener(IPAddress.Loopback, 0);
    listener.Start();
    int port = ((IPEndPoint)listener.LocalEndpoint).Port;
    Console.WriteLine("listening http://127.0.0.1:" + port);
    Console.Out.Flush();
    while (true) {
      var client = listener.AcceptTcpClient();
      ThreadPool.QueueUserWorkItem(_ => Handle(client, port));
    }
  }

  static string Line(Stream s) {
    var bytes = new List<byte>();
    int c;
    while ((c = s.ReadByte()) >= 0 && c != '\n') if (c != '\r') bytes.Add((byte)c);
    return c < 0 && bytes.Count == 0 ? null : Encoding.ASCII.GetString(bytes.ToArray());
  }

  void Handle(TcpClient client, int port) {
    using (client) {
      try {
        client.ReceiveTimeout = WaitMs;
        var s = client.GetStream();
        var start = Line(s);
        if (start == null) return;
        var parts = start.Split(' ');
        var headers = new Dictionary<string, string>();
        string line;
        while (!string.IsNullOrEmpty(line = Line(s))) {
          int colon = line.IndexOf(':');
          if (colon > 0) headers[line.Substring(0, colon).Trim().ToLowerInvariant()] = line.Substring(colon + 1).Trim();
        }
        string length;
        int size = headers.TryGetValue("content-length", out length) ? int.Parse(length) : 0;
        if (size > MaxBody) { Write(s, 413, new List<KeyValuePair<string, string>>(), new MemoryStream()); return; }
        var body = new byte[size];
        for (int read = 0, n; read < size; read += n)
          if ((n = s.Read(body, read, size - read)) <= 0) return;
        int q = parts[1].IndexOf('?');
        var x = new Exchange(parts[0], q < 0 ? parts[1] : parts[1].Substring(0, q),
          q < 0 ? "" : parts[1].Substring(q + 1), headers, body, port);
        HttpRuntime.ProcessRequest(x);
        if (!x.Done.WaitOne(WaitMs)) return;
        Write(s, x.Status, x.Sent, x.Answer);
      } catch (Exception e) {
        Console.Error.WriteLine(e);
      }
    }
  }

  static void Write(Stream s, int status, List<KeyValuePair<string, string>> sent, MemoryStream answer) {
    var head = new StringBuilder("HTTP/1.1 " + status + " " + HttpWorkerRequest.GetStatusDescription(status) + "\r\n");
    foreach (var h in sent)
      if (h.Key != "Content-Length" && h.Key != "Connection") head.Append(h.Key + ": " + h.Value + "\r\n");
    head.Append("Content-Length: " + answer.Length + "\r\nConnection: close\r\n\r\n");
    var bytes = Encoding.ASCII.GetBytes(head.ToString());
    s.Write(bytes, 0, bytes.Length);
    answer.WriteTo(s);
  }
}
