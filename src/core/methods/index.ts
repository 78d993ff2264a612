import type { MethodName } from '../config';
import { binaryRl } from './binary-rl';
import { combine } from './combine';
import { drGrpo, grpo } from './grpo';
import { opd } from './opd';
import type { Gate } from './types';

export const METHODS: Record<MethodName, Gate> = { 'binary-rl': binaryRl, opd, combine, grpo, 'dr-grpo': drGrpo };
export const isGrouped = (m: MethodName): boolean => m === 'grpo' || m === 'dr-grpo';
export type { GateDecision, JudgedTurn, MethodResult, Reason } from './types';
