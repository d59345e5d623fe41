/** Every `carrier` command. To add one: write commands/<name>.ts exporting a Command, add it here. */
import type { Command } from '../command';
import { compare } from './compare';
import { contract } from './contract';
import { envelope } from './envelope';
import { inspect } from './inspect';
import { report } from './report';
import { run } from './run';
import { sandbox } from './sandbox';
import { sendCommand } from './send';
import { validate } from './validate';

export const commands: readonly Command[] = [validate, run, report, envelope, sendCommand, sandbox, inspect, contract, compare];
