import { getMany } from './getMany.operation';
import type { Resource } from '../engine/operation';

export const product: Resource = { name: 'Product', value: 'product', defaultOperation: 'getMany', operations: [getMany] };
