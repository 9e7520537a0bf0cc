// Load a trace-event JSON file into a real viewer's importer: the trace engine of Chromium's
// DevTools Performance panel (models/trace/trace.js, bundled in Chromium as
// devtools://devtools/bundled/), in headless Chromium driven over --remote-debugging-pipe.
//   node tests/trace_viewer.js FILE [CHROMIUM FLAGS...]
// Prints one JSON object: {error} when the import threw, else {threads: [{pid, tid, name,
// entries, in_tree}], bounds: {min, max}} where entries are the complete events DevTools kept for
// the thread and in_tree those it could place in the thread's call tree (a slice that overlaps the
// one before without nesting in it is left out of the tree, and of the flame chart).
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');

const [file, ...flags] = process.argv.slice(2);
const text = fs.readFileSync(file, 'utf8');
const chrome = spawn('chromium', ['--headless', '--remote-debugging-pipe', ...flags, 'about:blank'],
	{ stdio: ['ignore', 'ignore', 'inherit', 'pipe', 'pipe'] });
const pending = new Map();
let buf = '', id = 0;

function done(out, code) {
	process.stdout.write(JSON.stringify(out) + '\n');
	chrome.kill('SIGKILL');
	process.exit(code);
}
setTimeout(() => done({ error: 'timed out after 150 s' }, 1), 150000);
chrome.on('exit', () => done({ error: 'chromium exited' }, 1));

chrome.stdio[4].on('data', (d) => {
	buf += d.toString();
	for (let i; (i = buf.indexOf('\0')) >= 0; buf = buf.slice(i + 1)) {
		const m = JSON.parse(buf.slice(0, i));
		if (m.id && pending.has(m.id)) {
			pending.get(m.id)(m);
			pending.delete(m.id);
		}
	}
});

function send(method, params, sessionId) {
	return new Promise((resolve) => {
		const m = { id: ++id, method, params: params || {} };
		if (sessionId)
			m.sessionId = sessionId;
		pending.set(m.id, resolve);
		chrome.stdio[3].write(JSON.stringify(m) + '\0');
	});
}

// Runs inside the DevTools page: import the events, summarise what the engine made of them.
async function importTrace(json) {
	const T = await import('./models/trace/trace.js');
	const model = T.TraceModel.Model.createWithAllHandlers();
	try {
		await model.parse(JSON.parse(json).traceEvents, { metadata: {}, isFreshRecording: false });
	} catch (e) {
		return { error: String((e && e.stack) || e) };
	}
	const data = model.parsedTrace(0).data, R = data.Renderer, threads = [];
	for (const [pid, p] of R.processes) {
		for (const [tid, t] of p.threads) {
			const entries = t.entries || [];
			threads.push({ pid, tid, name: t.name || null, entries: entries.length,
				in_tree: entries.filter((e) => R.entryToNode.has(e)).length });
		}
	}
	const b = data.Meta.traceBounds;
	return { threads, bounds: { min: b.min, max: b.max } };
}

(async () => {
	const t = await send('Target.createTarget',
		{ url: 'devtools://devtools/bundled/devtools_app.html' });
	if (!t.result)
		return done({ error: 'no DevTools page: ' + JSON.stringify(t.error) }, 1);
	const a = await send('Target.attachToTarget', { targetId: t.result.targetId, flatten: true });
	const s = a.result.sessionId;
	let r;
	for (let k = 0; k < 60; k++) { // until the page's modules resolve
		await new Promise((res) => setTimeout(res, 500));
		r = await send('Runtime.evaluate', { expression: `(${importTrace})(${JSON.stringify(text)})`,
			awaitPromise: true, returnByValue: true }, s);
		if (r.result && r.result.result && r.result.result.value)
			break;
	}
	if (!r.result || !r.result.result || !r.result.result.value)
		return done({ error: 'evaluation failed: ' + JSON.stringify(r).slice(0, 600) }, 1);
	done(r.result.result.value, 0);
})();
