export interface PlatformRule {
  on: 'posix' | 'linux' | 'win32';
  files: string[];
  reason: string;
}
export const PLATFORM_RULES: Record<string, PlatformRule[]>;
export function ruleRunsOn(rule: PlatformRule, platform: string): boolean;
export function excludedOn(dir: string, platform: string): { file: string; reason: string }[];
export function testPlatform(): string;
export interface CiLeg {
  unitOnly?: string[];
  unitExcept?: string[];
  why?: string;
}
export const CI_LEGS: Record<'linux' | 'darwin' | 'win32', CiLeg>;
export function legRuns(dir: string, os: string): boolean;
