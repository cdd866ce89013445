export interface PlatformRule {
  on: 'posix' | 'linux' | 'win32';
  files: string[];
  reason: string;
}
export const PLATFORM_RULES: Record<string, PlatformRule[]>;
export function ruleRunsOn(rule: PlatformRule, platform: string): boolean;
export function excludedOn(dir: string, platform: string): { file: string; reason: string }[];
export function testPlatform(): string;
