/**
 * The rules of Forgejo `app.ini` files, one module per code of ../codes.ts, in its order: each
 * checks the shared context (the parse, the quota settings as Forgejo reads them, the options) and
 * answers its diagnostics' quick fixes. analyzeAppIni runs this list.
 */
import type { AppIniCode } from '../codes';
import type { AppIniFixProvider, AppIniRule } from './context';
import { continuationIgnored } from './continuationIgnored';
import { duplicateKey } from './duplicateKey';
import { duplicateSection } from './duplicateSection';
import { iniSyntax } from './iniSyntax';
import { invalidBoolean } from './invalidBoolean';
import { invalidTotal } from './invalidTotal';
import { misplacedKey } from './misplacedKey';
import { misspeltSection } from './misspeltSection';
import { quotaDisabled } from './quotaDisabled';
import { totalIgnored } from './totalIgnored';
import { totalOlderServers } from './totalOlderServers';
import { unknownDefaultGroup } from './unknownDefaultGroup';
import { unknownKey } from './unknownKey';
import { valueCutByComment } from './valueCutByComment';

export type { AppIniRule };

export const APP_INI_RULES: readonly AppIniRule[] = [
  iniSyntax,
  unknownKey,
  misplacedKey,
  misspeltSection,
  invalidBoolean,
  quotaDisabled,
  totalOlderServers,
  totalIgnored,
  invalidTotal,
  unknownDefaultGroup,
  valueCutByComment,
  continuationIgnored,
  duplicateKey,
  duplicateSection,
];

/** The fix provider of `code`, if it has one. */
export const appIniFixProvider = (code: AppIniCode): AppIniFixProvider | undefined => APP_INI_RULES.find((rule) => rule.code === code)?.fix;
