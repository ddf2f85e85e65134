'use strict';
// CI runs at any hour, and the node refuses a campaign that would start at night in its recipients'
// hours (21:00 to 08:00: a `$now` date at 03:00 WIB, say). So every Create node a suite saves in n8n
// may start at night (Options › Allow Night Start), unless the suite sets the option itself: the
// journeys of the night rule set it to false (scheduled-launch.e2e.test.ts).
const NIGHT_OPTION = 'allowNightStart';

const isLbaCreate = (node) =>
	typeof node?.type === 'string' &&
	// Not the tool: the model (a scripted one here) writes its dates, with their hours.
	/\.lbaAds$/.test(node.type) &&
	(node.parameters?.resource ?? 'campaign') === 'campaign' &&
	(node.parameters?.operation ?? 'create') === 'create';

/** The workflow (or list of them) with Allow Night Start on in each Create node that does not set it. */
function anyHourOfDay(workflows) {
	if (Array.isArray(workflows)) return workflows.map(anyHourOfDay);
	if (!workflows || !Array.isArray(workflows.nodes)) return workflows;
	return {
		...workflows,
		nodes: workflows.nodes.map((node) =>
			isLbaCreate(node) && !(NIGHT_OPTION in (node.parameters.options ?? {}))
				? { ...node, parameters: { ...node.parameters, options: { ...(node.parameters.options ?? {}), [NIGHT_OPTION]: true } } }
				: node,
		),
	};
}

module.exports = { anyHourOfDay, NIGHT_OPTION };
