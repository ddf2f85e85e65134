// The rule sets n8n's community-package verification runs (@n8n/scan-community-package):
// @n8n/eslint-plugin-community-nodes recommended, eslint-plugin-n8n-nodes-base
// community/credentials/nodes, and no-console. Applied to the published code only.
import eslint from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'sandbox/**', 'scripts/**', 'bench/**', 'examples/**', '*.js', '*.mjs'] },
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: { 'no-console': 'error', 'prefer-spread': 'off' },
	},
	n8nCommunityNodesPlugin.configs.recommended,
	{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		rules: { ...n8nNodesPlugin.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		// Turned off exactly as in n8n's own @n8n/node-cli lint config.
		rules: { ...n8nNodesPlugin.configs.credentials.rules, 'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off' },
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.nodes.rules,
			// Turned off exactly as in n8n's own @n8n/node-cli lint config (NodeConnectionTypes.Main is current).
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
