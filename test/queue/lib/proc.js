'use strict';
// Reading /proc, for the queue adversaries (a worker seen stopped, spinners' CPU time) and bench P4
// (CPU per execution): one process's stat line, and the processes of a group (n8n and its task runner).
const fs = require('node:fs');

const CLOCK_TICKS = 100; // USER_HZ on Linux

/**
 * State letter, process group, CPU seconds (user + system) and those of its exited children, or
 * undefined once it is gone.
 */
function procStat(pid) {
	let text;
	try {
		text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	} catch {
		return undefined;
	}
	// The command name is in parentheses and may hold spaces: the fields start after the last ')'.
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	return {
		pid: Number(pid),
		state: fields[0],
		pgrp: Number(fields[2]),
		cpuSeconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
		childrenCpuSeconds: (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS,
	};
}

/** The processes of process group `group`, each as procStat gives it. */
function groupMembers(group) {
	const members = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = procStat(entry);
		if (stat && stat.pgrp === group) members.push(stat);
	}
	return members;
}

module.exports = { procStat, groupMembers };
