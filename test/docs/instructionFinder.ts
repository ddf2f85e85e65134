/**
 * Issue 60: every instruction the product shows is in the catalogue (nodes/shared/instructions.ts).
 * A text is cut into clauses (sentences, and steps after a colon, a semicolon or ", then"), the
 * catalogue's instructions and the sentences listed below as not instructions are taken out of it,
 * and what is left must tell nobody what to do. "Tells what to do" is read by an English grammar
 * (compromise's part-of-speech tags: a clause in the imperative, after any leading "If …," or
 * "Once …,"), not by a list of our own verbs, so a step after a colon or in lower case is seen too.
 */
import nlp from 'compromise';

import { INSTRUCTIONS } from '../../nodes/shared/instructions';

/** Sentences the grammar reads as instructions that are not: names, and statements of what something does. */
export const NOT_INSTRUCTIONS: Array<{ text: string; why: string }> = [
	{ text: 'Forget sent campaigns', why: 'An action\'s name.' },
	{ text: 'Turn a latitude and longitude into an address', why: "An action's description: what it does." },
	{ text: 'Use it to learn the city of a store or customer before a campaign.', why: "The operation's description." },
	{ text: 'Check each campaign and show the exact request and the SMS per recipient;', why: "Preview's description: what the mode does." },
	{ text: 'Send again, once, the one campaign whose sendAgainKey (from a held or failed item) is pasted below;', why: "Send One Again's description: what the mode does." },
	{ text: 'Send every item, even a campaign this node sent in an earlier run', why: "Resend's description: what the option does." },
	{ text: 'Forget Sent does nothing as a tool:', why: "The tool's description of itself." },
	{ text: 'Network error', why: 'The name of a network error, before its code (ECONNRESET).' },
	{ text: 'Campaign name', why: "A field's description: what the field holds." },
	{ text: 'Campaign description', why: "A field's description: what the field holds." },
	{ text: 'Campaign category', why: "A field's description: what the field holds." },
	{ text: 'Latitude in decimal degrees', why: "A field's description: what the field holds." },
	{ text: 'Longitude in decimal degrees', why: "A field's description: what the field holds." },
	{ text: 'address, province, city, district and more', why: 'What an output holds.' },
	{ text: 'name, price in IDR, main, night and apps quota in bytes and as text', why: 'What a tool returns.' },
	{ text: 'name, description, categoryId', why: "What a field's JSON holds." },
	{ text: 'Read-only and free', why: 'What a tool is.' },
	{ text: 'see Duplicate Protection', why: 'A pointer to a field.' },
	{ text: 'Custom Key:', why: "An option's name, on the user page." },
];

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HOLE = '\u0001';

/** A catalogue entry's text as a pattern: a template's parts match anything; a final full stop is optional. */
function patternOf(say: string | ((...parts: string[]) => string)): RegExp {
	const text = typeof say === 'string' ? say : say(...Array.from({ length: say.length }, () => HOLE));
	const body = escape(normalise(text).replace(/[.:]$/, '')).split(HOLE).join('.*?');
	return new RegExp(`${body}[.:]?`, 'g');
}

/** Longest first: a sentence that holds a shorter one ("Wait …, then look …; only if …") is taken out whole. */
const byLength = (a: { length: number }, b: { length: number }) => b.length - a.length;
const textOf = (say: string | ((...parts: string[]) => string)) => (typeof say === 'string' ? say : say(...Array.from({ length: say.length }, () => '')));
const CATALOGUED = Object.values(INSTRUCTIONS)
	.map(({ say }) => ({ length: textOf(say).length, pattern: patternOf(say) }))
	.sort(byLength)
	.map(({ pattern }) => pattern);
const LISTED = NOT_INSTRUCTIONS.map(({ text }) => patternOf(text));

/** A text with every catalogued instruction and every listed non-instruction taken out. */
export function uncatalogued(text: string): string {
	let left = normalise(text);
	for (const pattern of [...CATALOGUED, ...LISTED]) left = left.replace(pattern, ' ');
	return left;
}

/** The clauses of a text: its sentences, and the steps after a colon, a semicolon or ", then". */
export function clauses(text: string): string[] {
	return normalise(text)
		.split(/(?<=[.;:!?])\s+|(?<=,)\s+(?=then\b)/)
		.map((clause) => clause.replace(/^[\s…*•\-–—(]+|^\d+\.\s+/g, '').trim())
		.filter((clause) => clause.split(' ').length >= 2);
}

/** A leading clause before the step: "If it is missing, …", "Once it has finished, …", "In a moment, …". */
const LEADING = /^(?:(?:only\s+)?if|once|when|to|for|in|otherwise|before|after|unless|until)\b[^,;:]*,\s+/i;
/** What follows a name used as a subject ("Send Until is …", "Resend works …", "Campaign could not …"): a statement. */
const STATEMENT_NEXT = /^(is|are|was|were|has|have|had|does|did|must|can|cannot|could|should|might|would|will|may|of|works?|shows?|sends?|holds?|reads?)$/i;
/** How the object of a step starts: "Retry this …", "Lower the …", "Open Executions", "Set Mode …", "Turn it off". */
const OBJECT_START = /^(?:this|that|these|those|the|a|an|it|its|them|their|your|every|each|all|one|some|back|again|off|on|up|in|with|to|for|at|["“]|(?!(?:The|This|That|It|A|An)\b)[A-Z][^\d]*$)/;

/** Whether a clause tells someone what to do: in the imperative, after any leading clause. */
export function tellsWhatToDo(clause: string): boolean {
	let step = clause.replace(/^(?:then|and|or|but|so)\s+/i, '');
	for (let depth = 0; depth < 2; depth++) step = step.replace(LEADING, '');
	const words = step.split(' ');
	// A name used as a subject: "Send Until is …", "Resend works …", "Campaign could not …".
	let next = 1;
	while (next < words.length && /^[A-Z]/.test(words[next])) next++;
	if ([words[1], words[next]].some((word) => STATEMENT_NEXT.test((word ?? '').replace(/\W/g, '')))) return false;
	// "Campaign created …", "LBA Ads takes …", "GET /lba/locations failed": a subject and its verb.
	if (next < words.length && nlp(words[next]).has('(#PastTense|#PresentTense)') && /(?:ed|s)$/.test(words[next].replace(/\W/g, ''))) return false;
	// "GET /lba/locations failed", "campaign 4C43… Published", "Send From (2026-…) has passed", "UTC offset +24:00 is …",
	// "n8n then …", a URL: a path, an id or a number names a thing; "busy The request …": a sentence glued to a word before it.
	if (/^\/|\d/.test(words[1] ?? '') || /\d/.test(words[2] ?? '') || /\d|:\/\//.test(words[0]) || /^(?:The|This|That|It|A|An)$/.test(words[1] ?? '')) return false;
	// "Looks up …", "Returns …": what something does.
	if (/^[A-Z][a-z]+s$/.test(words[0]) && nlp(words[0]).has('#PresentTense')) return false;
	const doc = nlp(step);
	if (doc.has('^#Imperative') || doc.has('^#Infinitive') || doc.has('^(do|please) not? #Verb') || doc.has('^never #Verb')) return true;
	// A word the grammar reads as a verb where one is expected ("you should retry it"), at the start of
	// a clause whose next word starts an object ("Retry this …", "Open Executions"): tagged as a noun
	// only because it is capitalised or rare.
	if (!nlp(`you should ${words[0].toLowerCase().replace(/\W/g, '')} it`).has('should #Infinitive')) return false;
	return OBJECT_START.test(words[1] ?? '');
}

/** The clauses of `text` that tell what to do and are not in the catalogue. */
export function instructionsNotCatalogued(text: string): string[] {
	return clauses(uncatalogued(text)).filter(tellsWhatToDo);
}
