import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** GET /api/me: who the service takes the caller for. */
export class MeDto {
  @ApiProperty({
    description:
      'true with AUTH_MODE=oidc (a verified bearer token); false when authentication is off, and the service knows no one',
    example: true,
  })
  authenticated: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The caller's user id (the token's AUTH_USER_CLAIM, `sub` by default): the `userId` of the projects they own. null when authentication is off: every request then names its own userId",
    example: 'alice',
  })
  userId: string | null;

  @ApiPropertyOptional({
    description: "The token's `name` claim, when it has one",
    example: 'Alice Martin',
  })
  name?: string;

  @ApiPropertyOptional({
    description: "The token's `email` claim, when it has one",
    example: 'alice@example.com',
  })
  email?: string;

  @ApiProperty({
    type: [String],
    description:
      'The roles the token lists (AUTH_ROLES_CLAIM, `roles` by default); [] when authentication is off',
    example: ['workspace-admin'],
  })
  roles: string[];

  @ApiProperty({
    description:
      'Holds AUTH_ADMIN_ROLE: may list and read every user’s projects (not change them)',
    example: false,
  })
  admin: boolean;
}

export const ME_EXAMPLE: MeDto = {
  authenticated: true,
  userId: 'alice',
  name: 'Alice Martin',
  email: 'alice@example.com',
  roles: ['workspace-admin'],
  admin: true,
};

export const ANONYMOUS_EXAMPLE: MeDto = {
  authenticated: false,
  userId: null,
  roles: [],
  admin: false,
};
