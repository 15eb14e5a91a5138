import { ApiProperty } from '@nestjs/swagger';
import { RunDto } from './run.dto';

export class RunResponseDto {
  @ApiProperty({ type: RunDto })
  run: RunDto;
}

export class RunPageResponseDto {
  @ApiProperty({ type: [RunDto], description: 'Newest first' })
  runs: RunDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The `cursor` of the next page; null on the last one.',
    example: null,
  })
  nextCursor: string | null;
}
