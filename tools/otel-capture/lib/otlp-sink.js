'use strict';
// An OTLP/HTTP JSON receiver: POST /v1/traces and /v1/logs. It keeps every export request of the running scenario in
// arrival order, each body exactly as received (parsed once, and checked to re-serialize to the same bytes), and
// answers as a collector does (200, an empty ExportServiceResponse).

const http = require('node:http');
const zlib = require('node:zlib');

const SIGNALS = { '/v1/traces': 'traces', '/v1/logs': 'logs' };

class OtlpSink {
  constructor() {
    this.scenario = null;
    this.exports = [];
    this.errors = [];
    this.server = http.createServer((req, res) => this._handle(req, res));
  }

  listen() {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve(this.server.address().port));
    });
  }

  close() {
    return new Promise(resolve => this.server.close(() => resolve()));
  }

  /** Starts a fresh buffer for the scenario `name`. */
  start(name) {
    this.scenario = name;
    this.exports = [];
    this.errors = [];
  }

  _reject(res, status, message) {
    this.errors.push(`OTLP sink: ${message}`);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 3, message }));
  }

  _handle(req, res) {
    const chunks = [];
    req.on('data', c => chunks.push(c));
    req.on('end', () => {
      try {
        this._accept(req, Buffer.concat(chunks), res);
      } catch (err) {
        this._reject(res, 500, `unexpected error: ${err.stack || err}`);
      }
    });
  }

  _accept(req, raw, res) {
    const signal = SIGNALS[req.url.split('?')[0]];
    if (req.method !== 'POST' || !signal) {
      return this._reject(res, 404, `unexpected request ${req.method} ${req.url}`);
    }
    const from = req.headers['x-capture-scenario'];
    if (from !== this.scenario) {
      return this._reject(res, 409, `${signal} export from scenario ${from} while ${this.scenario} is running`);
    }
    const type = String(req.headers['content-type'] || '');
    if (!type.startsWith('application/json')) {
      return this._reject(res, 415, `${signal} export with content-type ${type}, expected application/json`);
    }
    const encoding = String(req.headers['content-encoding'] || 'identity');
    let bytes = raw;
    if (encoding === 'gzip') {
      bytes = zlib.gunzipSync(raw);
    } else if (encoding !== 'identity') {
      return this._reject(res, 415, `${signal} export with content-encoding ${encoding}`);
    }
    const text = bytes.toString('utf8');
    let body;
    try {
      body = JSON.parse(text);
    } catch (err) {
      return this._reject(res, 400, `${signal} export is not JSON: ${err.message}`);
    }
    // The fixture holds the parsed body; make sure nothing was lost in parsing (e.g. a 64-bit number as a JSON number).
    if (JSON.stringify(body) !== text) {
      this.errors.push(`OTLP sink: a ${signal} export does not re-serialize to the bytes received; the fixture would differ`);
    }
    this.exports.push({ signal, body });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  }
}

module.exports = { OtlpSink };
