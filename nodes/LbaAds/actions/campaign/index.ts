import { createCampaign } from './create/create.operation';
import { forgetSent } from './forgetSent.operation';
import type { Resource } from '../engine/operation';

export const campaign: Resource = { name: 'Campaign', value: 'campaign', defaultOperation: 'create', operations: [createCampaign, forgetSent] };
