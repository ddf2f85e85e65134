'use strict';
// A small SVG of the bench's ratios: one row per ratio, median bar with min–max whisker,
// the target as a red tick. Log scale, because the ratios span 0.1× to 30×.

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function rowsOf(results) {
	const rows = [];
	if (results.p1) {
		for (const s of Object.values(results.p1)) {
			rows.push({ label: `P1 ${s.label}: items/s vs HTTP Request`, s: s.speedupVsHttp, target: 1.5, better: 'higher' });
			if (s.lbaJsonVsDedupHttp) {
				if (s.campaignJsonVsDedupHttp) rows.push({ label: `P1 ${s.label}, campaign JSON: items/s vs Remove Duplicates + HTTP`, s: s.campaignJsonVsDedupHttp, target: 1, better: 'higher' });
				rows.push({ label: `P1 ${s.label}, JSON channels: items/s vs Remove Duplicates + HTTP`, s: s.lbaJsonVsDedupHttp, better: 'higher' });
				rows.push({ label: `P1 ${s.label}: items/s vs Remove Duplicates + HTTP`, s: s.lbaVsDedupHttp, better: 'higher' });
			}
			rows.push({ label: `P1 ${s.label}: time vs engine floor`, s: s.timeVsFloor, target: 1.2, better: 'lower' });
			// No target: the HTTP floor is the limit to read the other figures against.
			if (s.timeVsHttpFloor) rows.push({ label: `P1 ${s.label}: time vs HTTP floor`, s: s.timeVsHttpFloor, better: 'lower' });
		}
	}
	if (results.p2) {
		rows.push({ label: 'P2 List Products: peak RSS vs HTTP + Split Out', s: results.p2.peakRssRatio, target: 1, better: 'lower' });
		rows.push({ label: 'P2 List Products: live heap vs HTTP + Split Out', s: results.p2.liveHeapRatio, target: 1, better: 'lower' });
	}
	if (results.p4) rows.push({ label: 'P4 queue mode: executions/s, 2 workers vs 1', s: results.p4.speedup, target: 1, better: 'higher' });
	if (results.p3) {
		for (const s of Object.values(results.p3.endpoints)) {
			rows.push({ label: `P3 ${s.label}: req/s vs Prism`, s: s.vsPrism, target: 10, better: 'higher' });
			rows.push({ label: `P3 ${s.label}: req/s vs bare node:http`, s: s.vsBare, target: 0.7, better: 'higher' });
		}
	}
	return rows;
}

function renderSvg(results) {
	const rows = rowsOf(results);
	const labelW = 400;
	const plotW = 420;
	const rowH = 26;
	const top = 50;
	const width = labelW + plotW + 90;
	const height = top + rows.length * rowH + 50;
	const lo = Math.log10(0.1);
	const hi = Math.log10(100);
	const x = (v) => labelW + ((Math.log10(Math.min(Math.max(v, 0.1), 100)) - lo) / (hi - lo)) * plotW;
	const out = [];
	out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`);
	out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
	out.push(`<text x="10" y="20" font-size="14" font-weight="bold">n8n-nodes-lba-ads bench: ratios measured in one run (median, min–max; red tick = target)</text>`);
	const m = results.machine || {};
	out.push(`<text x="10" y="38" fill="#555">${esc(`${(results.date || '').slice(0, 10)} · ${m.cpus} CPU ${m.cpuModel || ''} · ${m.memoryGiB} GiB · n8n ${m.n8n} · Node ${m.node} · rounds: ${Object.entries(results.order || {}).map(([part, o]) => `${part} ${o.rounds}`).join(', ') || results.rounds}`)}</text>`);
	const unbalanced = Object.entries(results.order || {}).filter(([, o]) => !o.balanced);
	if (unbalanced.length) out.push(`<text x="10" y="${height - 8}" font-weight="bold" fill="#c00">${esc(`UNBALANCED ORDER: ${unbalanced.map(([part, o]) => `${part} ${o.rounds} rounds of ${o.contenders}`).join(', ')}`)}</text>`);
	for (const tick of [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100]) {
		out.push(`<line x1="${x(tick)}" y1="${top - 4}" x2="${x(tick)}" y2="${top + rows.length * rowH}" stroke="${tick === 1 ? '#888' : '#e5e5e5'}"/>`);
		out.push(`<text x="${x(tick)}" y="${top + rows.length * rowH + 16}" text-anchor="middle" fill="#555">${tick}×</text>`);
	}
	rows.forEach((row, i) => {
		const y = top + i * rowH;
		const mid = y + rowH / 2;
		const hasTarget = row.target !== undefined;
		const met = row.better === 'higher' ? row.s.median >= row.target : row.s.median <= row.target;
		out.push(`<text x="${labelW - 8}" y="${mid + 4}" text-anchor="end">${esc(row.label)}</text>`);
		out.push(`<rect x="${x(0.1)}" y="${y + 6}" width="${Math.max(1, x(row.s.median) - x(0.1))}" height="${rowH - 12}" fill="${!hasTarget ? '#7a8fa6' : met ? '#4c9a5b' : '#d98c2b'}"/>`);
		out.push(`<line x1="${x(row.s.min)}" y1="${mid}" x2="${x(row.s.max)}" y2="${mid}" stroke="#222" stroke-width="1.5"/>`);
		out.push(`<line x1="${x(row.s.min)}" y1="${mid - 5}" x2="${x(row.s.min)}" y2="${mid + 5}" stroke="#222"/>`);
		out.push(`<line x1="${x(row.s.max)}" y1="${mid - 5}" x2="${x(row.s.max)}" y2="${mid + 5}" stroke="#222"/>`);
		if (hasTarget) out.push(`<line x1="${x(row.target)}" y1="${y + 2}" x2="${x(row.target)}" y2="${y + rowH - 2}" stroke="#c0392b" stroke-width="2.5"/>`);
		const sign = row.better === 'higher' ? '≥' : '≤';
		const target = hasTarget ? ` <tspan fill="#888">(${sign}${row.target})</tspan>` : '';
		out.push(`<text x="${labelW + plotW + 8}" y="${mid + 4}">${row.s.median.toFixed(2)}×${target}</text>`);
	});
	out.push(`<text x="10" y="${height - 10}" fill="#555">Green: target met; orange: not met; grey: no target (a limit to compare with). Higher is better for items/s and req/s, lower for time and memory.</text>`);
	out.push('</svg>');
	return `${out.join('\n')}\n`;
}

module.exports = { renderSvg };
