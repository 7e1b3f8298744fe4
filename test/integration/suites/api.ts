import * as vscode from 'vscode';
import type { SkillgateApi } from '../../../src/extension/extension';

/** The Skillgate extension under test, activated and with its first index published. */
export async function skillgate(): Promise<SkillgateApi> {
  const ext = vscode.extensions.getExtension<SkillgateApi>('skillgate.skillgate');
  if (!ext) throw new Error('the Skillgate extension is not installed in this host');
  const api = await ext.activate();
  await api.ready;
  return api;
}
