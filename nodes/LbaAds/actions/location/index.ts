import { findTargetingLocation } from './findTargetingLocation.operation';
import { reverseGeocode } from './reverseGeocode.operation';
import type { Resource } from '../engine/operation';

export const location: Resource = {
	name: 'Location',
	value: 'location',
	defaultOperation: 'reverseGeocode',
	operations: [findTargetingLocation, reverseGeocode],
};
